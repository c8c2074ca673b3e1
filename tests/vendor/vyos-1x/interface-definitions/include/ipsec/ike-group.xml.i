<!-- include start from ipsec/ike-group.xml.i -->
<leafNode name="ike-group">
  <properties>
    <help>Internet Key Exchange (IKE) group name</help>
    <completionHelp>
      <path>vpn ipsec ike-group</path>
    </completionHelp>
  </properties>
</leafNode>
<!-- include end -->
