<!-- include start from interface/evpn-mh-uplink.xml.i -->
<leafNode name="uplink">
  <properties>
    <help>Uplink to the VXLAN core</help>
    <valueless/>
  </properties>
</leafNode>
<!-- include end -->
