<!-- include start from accel-ppp/radius-additions-disable-accounting.xml.i -->
<leafNode name="disable-accounting">
  <properties>
    <help>Disable accounting</help>
    <valueless/>
  </properties>
</leafNode>
<!-- include end -->
